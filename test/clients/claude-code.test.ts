import { clientSuite } from './suite.js';

clientSuite('claude-code');
