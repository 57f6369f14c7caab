import { refuseUnsupportedNode } from './node-version';

/**
 * Imported first by the server and the CLI, and run on its own by `npm start` before the Node flags
 * an older Node refuses (`node dist/src/bootstrap/supported-node`): an unsupported Node stops here
 * with one line naming the version needed and the one found, exit code 1.
 */
refuseUnsupportedNode();
