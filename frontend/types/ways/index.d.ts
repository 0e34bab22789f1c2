export { aiWalletWay } from "./aiwallet.js";
export { extensionWay } from "./extension.js";
export { linkWay } from "./link.js";
export { builtinWay } from "./builtin.js";
export { ownWay } from "./own.js";
export { readEventStream } from "./event-stream.js";
export { DETECT_TIMEOUT_MS, WAY_ORDER, WayChooser } from "./chooser.js";
export { abortable, matchChoice, withChoices } from "./messages.js";
