import { describe, expect, it } from 'vitest';
import { isIdentifierField } from './identifier-field.js';

describe('isIdentifierField', () => {
  it.each([
    'id',
    'ID',
    'Id',
    'ids',
    'uuid',
    'guid',
    'user_id',
    'USER_ID',
    'note-id',
    'note_ids',
    'tag-IDS',
    'owner_uuid',
    'account_guids',
    'userId',
    'noteIds',
    'accountID',
    'accountIDs',
    'orderIDS',
    'sessionUuid',
    'deviceUUID',
    'item2Id',
    'a_b_c_id',
  ])('treats %s as an identifier', (name) => {
    expect(isIdentifierField(name)).toBe(true);
  });

  it.each([
    'valid',
    'paid',
    'grid',
    'android',
    'userid',
    'identity',
    'idle',
    'id_card',
    'ideas',
    'rapids',
    'Valid',
    'PAID',
    'squid',
    'fluid',
    '',
    '_',
  ])('does not treat %s as an identifier', (name) => {
    expect(isIdentifierField(name)).toBe(false);
  });
});
