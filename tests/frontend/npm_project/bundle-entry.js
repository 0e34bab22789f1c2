// An app's own code, bundled by esbuild from the installed package.
import { AiConnect, WalletRequestError } from 'visitor-ai/aiconnect';

console.log(typeof AiConnect, new WalletRequestError('refused', 403).name);
