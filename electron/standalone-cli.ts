// The aiti-bridge CLI as one self-contained file for the installed app: dist/cli/bin/aiti-bridge.mjs, shipped
// outside the asar (electron-builder.yml extraResources) so a plain Node can run it. The tray registers it as the
// stdio shim of MCP clients (`node <resources>/aiti-cli/bin/aiti-bridge.mjs --stdio`), since the app's own
// binary cannot run scripts (the RunAsNode fuse is off).
import { run } from '../bridge/cli.js';

run();
