// @milpa/tool-runtime/rendering: results as text. The renderer registry, the default renderer
// (results as content blocks) and the terminal renderer.

export { RendererRegistry } from './renderer-registry.js';
export { DefaultRenderer } from './default-renderer.js';
export { CliRenderer, type CliRendererOptions } from './cli-renderer.js';
