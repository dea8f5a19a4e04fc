import { describe, expect, it } from 'vitest';
import { countRoutingTerms, routingTerms } from './routing-terms.js';

describe('routingTerms', () => {
  it('lower-cases words and keeps them in order, repeats included', () => {
    expect(routingTerms('Delete NOTE, then delete note')).toEqual(['delete', 'note', 'delete', 'note']);
  });

  it('drops words shorter than three characters', () => {
    expect(routingTerms('go to db id 42 now add')).toEqual(['add']);
  });

  it('drops stop words', () => {
    expect(routingTerms('Could you please show me all of the notes that were archived')).toEqual(['show', 'note', 'archived']);
  });

  it('keeps request verbs, which intents are made of', () => {
    expect(routingTerms('get list find delete search create update')).toEqual([
      'get',
      'list',
      'find',
      'delete',
      'search',
      'create',
      'update',
    ]);
  });

  it('cuts a trailing s from words longer than three characters', () => {
    expect(routingTerms('editors notes files')).toEqual(['editor', 'note', 'file']);
  });

  it('turns ies into y', () => {
    expect(routingTerms('categories entries')).toEqual(['category', 'entry']);
  });

  it('applies the rule as a rule, not a dictionary: status becomes statu', () => {
    expect(routingTerms('status statuses')).toEqual(['statu', 'statuse']);
  });

  it('leaves three-letter words ending in s alone', () => {
    expect(routingTerms('bus gas')).toEqual(['bus', 'gas']);
  });

  it('splits identifiers at separators and camelCase humps', () => {
    expect(routingTerms('delete_note notes.archive deleteNote HTTPRequestTool')).toEqual([
      'delete',
      'note',
      'note',
      'archive',
      'delete',
      'note',
      'http',
      'request',
      'tool',
    ]);
  });

  it('keeps letters and digits of any script together', () => {
    expect(routingTerms('café größe mp3 2024')).toEqual(['café', 'größe', 'mp3', '2024']);
  });

  it('returns nothing for an empty or punctuation-only text', () => {
    expect(routingTerms('')).toEqual([]);
    expect(routingTerms('?! -- ...')).toEqual([]);
  });
});

describe('countRoutingTerms', () => {
  it('counts each word after the same filtering and singular as routingTerms', () => {
    const text = 'Notes, old notes; the NOTE and deleteNote. Categories!';

    expect(countRoutingTerms(text)).toEqual(
      routingTerms(text).reduce((counts, term) => counts.set(term, (counts.get(term) ?? 0) + 1), new Map<string, number>()),
    );
    expect(countRoutingTerms(text)).toEqual(
      new Map([
        ['note', 4],
        ['old', 1],
        ['delete', 1],
        ['category', 1],
      ]),
    );
  });

  it('returns an empty map for a text without words', () => {
    expect(countRoutingTerms(' ,; ')).toEqual(new Map());
  });
});
