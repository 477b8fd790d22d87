import * as z from 'zod';
import { FrameId } from './common.js';

/** Result shapes of the page halves of page_snapshot, self_ui, form_fill and user_pick_element. */

export const Viewport = z.object({
  width: z.number(),
  height: z.number(),
  scrollX: z.number(),
  scrollY: z.number(),
  devicePixelRatio: z.number(),
  /** full document size */
  documentWidth: z.number(),
  documentHeight: z.number(),
});
export type Viewport = z.infer<typeof Viewport>;

/** A cross-origin iframe is not inlined: snapshot it with its frameId. */
export const SnapshotFrame = z.object({ frameId: FrameId.optional(), url: z.string(), title: z.string().optional() });
export type SnapshotFrame = z.infer<typeof SnapshotFrame>;

/** Snapshot.take: one line per meaningful node, indented by depth: `e12 button "Save" [disabled]`. */
export const SnapshotResult = z.object({
  url: z.string(),
  title: z.string(),
  viewport: Viewport,
  frameworks: z.array(z.string()),
  /** the outline; every actionable element starts with its ref */
  outline: z.string(),
  /** how many refs the outline carries */
  refs: z.number().int().nonnegative(),
  /** iframes the outline could not inline (cross-origin) */
  frames: z.array(SnapshotFrame),
  truncated: z.boolean().optional(),
  /** a modal dialog is open: the outline is that dialog, the page behind it is inert */
  modal: z.boolean().optional(),
});
export type SnapshotResult = z.infer<typeof SnapshotResult>;

export const SourceLocation = z.object({
  file: z.string(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  /** where it came from: data-source, react, vue, svelte */
  via: z.string(),
  /** the component whose element is written at that line (`Button` for an MUI Button), when a framework says */
  component: z.string().max(200).optional(),
});
export type SourceLocation = z.infer<typeof SourceLocation>;

export const UiField = z.object({
  label: z.string(),
  name: z.string().optional(),
  /** only when stable (an author's id, name, test id): the ref names the element either way */
  selector: z.string().optional(),
  ref: z.string(),
  type: z.string(),
  value: z.union([z.string(), z.boolean(), z.array(z.string())]),
  /** present when true */
  required: z.boolean().optional(),
  disabled: z.boolean().optional(),
  placeholder: z.string().optional(),
  options: z.array(z.string()).optional(),
});
export type UiField = z.infer<typeof UiField>;

export const UiButton = z.object({
  label: z.string(),
  /** only when stable (an author's id, name, test id): the ref names the element either way */
  selector: z.string().optional(),
  ref: z.string(),
  type: z.string().optional(),
  disabled: z.boolean().optional(),
});
export type UiButton = z.infer<typeof UiButton>;

export const UiSurface = z.object({
  kind: z.enum(['dialog', 'form']),
  title: z.string(),
  /** only when stable (an author's id, name, test id): the ref names the element either way */
  selector: z.string().optional(),
  ref: z.string(),
  modal: z.boolean().optional(),
  fields: z.array(UiField),
  buttons: z.array(UiButton),
  /** the path of the same-origin iframe the form is in (form_fill reaches it without frameId) */
  frame: z.string().optional(),
});
export type UiSurface = z.infer<typeof UiSurface>;

/** UI.scan: open dialogs (topmost last) and visible forms outside them. */
export const UiScanResult = z.object({ url: z.string(), dialogs: z.array(UiSurface), forms: z.array(UiSurface) });
export type UiScanResult = z.infer<typeof UiScanResult>;

/** UI.fill: what was filled, and the button clicked after. */
/** An uncaught error, unhandled rejection or console.error an action raised, with the line written where known. */
export const Raised = z.object({
  kind: z.enum(['error', 'unhandledrejection', 'console.error']),
  message: z.string(),
  at: z.string().optional(),
});
export type Raised = z.infer<typeof Raised>;

export const UiFillResult = z.object({
  /** what filling and pressing the button raised in the page (a submit handler that threw) */
  raised: z.array(Raised).optional(),
  scope: z.string(),
  filled: z.array(
    z.object({
      field: z.string(),
      selector: z.string().optional(),
      value: z.union([z.string(), z.boolean(), z.array(z.string())]),
    }),
  ),
  /**
   * fields the widget refused (no such option) or whose value the app did not keep once it re-rendered:
   * what was wanted and what the field shows instead (and the options it offers, when it has a list). When present,
   * the button was not pressed, unless the call asked for it anyway (pressAnyway).
   */
  notFilled: z
    .array(
      z.object({
        field: z.string(),
        wanted: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
        shows: z.union([z.string(), z.boolean(), z.array(z.string())]),
        reason: z.string(),
        options: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  note: z.string().optional(),
  clicked: z.string().optional(),
  /** after the click: whether the dialog that was filled is still open */
  dialogOpen: z.boolean().optional(),
});
export type UiFillResult = z.infer<typeof UiFillResult>;

export const Rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type Rect = z.infer<typeof Rect>;

/** User.pick: the element the human clicked, or a cancellation. */
export const PickResult = z.discriminatedUnion('picked', [
  z.object({
    picked: z.literal(true),
    selector: z.string(),
    ref: z.string(),
    tag: z.string(),
    role: z.string().optional(),
    name: z.string().optional(),
    text: z.string(),
    rect: Rect,
    source: SourceLocation.optional(),
  }),
  z.object({ picked: z.literal(false), reason: z.enum(['cancelled', 'replaced', 'timeout']) }),
]);
export type PickResult = z.infer<typeof PickResult>;
