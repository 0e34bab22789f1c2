// @ts-check
/**
 * The UI of the browser library: `<ai-connect-widget>` (defined when this module loads), the
 * transcript, the "Answered by" words and the reply drawn as text. Styles: `ui/ui.css`, `ui/page.css`.
 */
export { ConnectWidget, answeredBy } from './connect-widget.js';
export { Transcript, TranscriptTurn, outcomeOf } from './transcript.js';
export { drawReply } from './reply-text.js';
