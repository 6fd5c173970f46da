// Starts the embed widget (/embed): TeaVM compiles it to an ES module (/embed-app.js). A file of
// its own because the CSP forbids inline scripts.
import { main } from './embed-app.js';

main();
