// Starts the app: TeaVM compiles it to an ES module (/app.js) that imports the binding modules
// under /js/. A file of its own because the CSP forbids inline scripts.
import { main } from './app.js';

main();
