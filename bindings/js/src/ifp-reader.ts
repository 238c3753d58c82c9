// `import IFPReader from 'gtastream/ifp-reader'`: the same import shape as the reader it
// replaces. Importing it loads the WebAssembly module, as the main entry does.
import './index.js';
import { IFPReader } from './ifp.js';

export type { IFPAnimation, IFPBone, IFPFrame } from './ifp.js';
export { IFPReader };
export default IFPReader;
