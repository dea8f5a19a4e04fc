// `id`, `ids`, `uuid`, `guid` alone, or as the last part of a name after `_` or `-` (any case).
const SEPARATED = /(?:^|[_-])(?:ids?|uuids?|guids?)$/i;
// The camelCase forms: a lower-case letter or digit, then `Id`, `ID`, `Ids`, `IDs`, `Uuid`, `UUID`, … at the end.
const CAMEL = /[a-z0-9](?:Ids?|IDs?|IDS|Uuids?|UUIDs?|Guids?|GUIDs?)$/;

/**
 * True when an argument's name says it identifies a record, so neither argument tidying nor a clamp
 * may change it (a value moved to a bound, or dropped, would act on another record or on all of
 * them): `id`, `ids`, `uuid` or `guid` on their own or as the last part of the name after `_` or
 * `-` in any case (`user_id`, `note-ids`, `ORDER_ID`), or in camelCase after a lower-case letter or
 * digit (`userId`, `noteIds`, `accountID`, `sessionUuid`). Words that merely end in those letters
 * (`valid`, `paid`, `grid`) are not identifiers, nor is a name run together in lower case
 * (`userid`): mark such a property `'x-milpa-protected': true`.
 *
 * @example
 * isIdentifierField('user_id'); // true
 * isIdentifierField('valid'); // false
 */
export function isIdentifierField(name: string): boolean {
  return SEPARATED.test(name) || CAMEL.test(name);
}
