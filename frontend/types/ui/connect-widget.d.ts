export { answeredBy };
/** @typedef {import('../aiconnect/types.js').ConnectionState} ConnectionState */
/** @typedef {import('../aiconnect/client.js').AiConnect} AiConnect */
export class ConnectWidget extends HTMLElement {
    connectedCallback(): void;
    disconnectedCallback(): void;
    set client(client: import("../aiconnect/client.js").AiConnect | null);
    /** The client whose state this widget shows. */
    get client(): import("../aiconnect/client.js").AiConnect | null;
    #private;
}
export type ConnectionState = import("../aiconnect/types.js").ConnectionState;
export type AiConnect = import("../aiconnect/client.js").AiConnect;
import { answeredBy } from './answered-by.js';
