// Module resolution hooks (node:module register) for milpa-snapshot-register.mjs.
import { pathToFileURL } from 'node:url';

let root = '';

export function initialize(data) {
  root = data.root;
}

export async function resolve(specifier, context, nextResolve) {
  const match = /^@milpa\/(core|events|tool-runtime|mcp)$/.exec(specifier);
  // Handed on (not short-circuited), so that tsx's resolver marks the .ts file for its loader.
  if (match !== null && root !== '') return nextResolve(pathToFileURL(`${root}/packages/${match[1]}/src/index.ts`).href, context);
  return nextResolve(specifier, context);
}
