import { clientSuite } from './suite.js';

clientSuite('gemini-cli');
