/** The hand-link codec lives in the engine (src/engine/share/codec.ts) so the event server re-scores links with it. */
export * from '../../engine/share/codec.ts';
