// Types for snappyjs (pure JavaScript Snappy, block format), which ships none.
declare module 'snappyjs' {
  export function compress<T extends Uint8Array | ArrayBuffer>(input: T): T;
  export function uncompress<T extends Uint8Array | ArrayBuffer>(input: T, maxLength?: number): T;
}
