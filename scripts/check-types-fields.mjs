// The package.json fields TypeScript's `moduleResolution: node10` reads instead of `exports`; used by
// check-release.mjs on each packed package.json.

/**
 * Problems with a published package.json's `types` (the main entry's declarations, as
 * `exports["."].types` names them) and `typesVersions["*"]` (one entry per subpath of `exports`,
 * naming that subpath's declarations). Returns one message per problem; none when both are right.
 * @param {string} name the package's name, for the messages
 * @param {Record<string, any>} manifest the package.json as published
 * @returns {string[]}
 */
export function checkTypesFields(name, manifest) {
  const problems = [];
  const exportsMap = typeof manifest.exports === 'object' && manifest.exports !== null ? manifest.exports : {};
  const mainTypes = exportsMap['.']?.types;
  if (typeof mainTypes !== 'string') return [`${name}: exports["."] has no types condition`];
  if (manifest.types !== mainTypes) {
    problems.push(
      `${name}: the top-level types field is ${JSON.stringify(manifest.types)}, expected "${mainTypes}" (as exports["."].types), ` +
        'so that moduleResolution node10 finds the types',
    );
  }
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (subpath === '.' || subpath === './package.json' || typeof target?.types !== 'string') continue;
    const key = subpath.slice(2);
    const mapped = manifest.typesVersions?.['*']?.[key];
    if (!Array.isArray(mapped) || mapped.length !== 1 || mapped[0] !== target.types) {
      problems.push(
        `${name}: typesVersions["*"]["${key}"] is ${JSON.stringify(mapped)}, expected ["${target.types}"] ` +
          `(as exports["${subpath}"].types), so that moduleResolution node10 finds the types`,
      );
    }
  }
  return problems;
}
