export {
  array,
  boolean,
  discriminatedUnion,
  enum,
  lazy,
  literal,
  null,
  number,
  object,
  record,
  string,
  union,
} from 'zod/v4';
