export { drawReply } from "./reply-text.js";
export { ConnectWidget, answeredBy } from "./connect-widget.js";
export { Transcript, TranscriptTurn, outcomeOf } from "./transcript.js";
