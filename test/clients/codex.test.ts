import { clientSuite } from './suite.js';

clientSuite('codex');
