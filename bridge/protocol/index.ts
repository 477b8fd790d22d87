/**
 * The wire contract: every shape that crosses a process or trust boundary. Imported by the bridge, the page
 * agent and the renderer alike, so nothing here may import node: modules or touch the DOM.
 */
export * from './common.js';
export * from './page.js';
export * from './commands.js';
export * from './snapshot.js';
export * from './inbox.js';
export * from './asks.js';
export * from './human.js';
export * from './devices.js';
export * from './format.js';
export * from './strict.js';
export * from './headers.js';
export * from './images.js';
export * from './refs.js';
export * from './quick-replies.js';
