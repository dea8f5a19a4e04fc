import { describe, expect, it, vi } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import type { ContentBlock } from './content-block.js';
import { ToolResult } from './tool-result.js';

describe('ToolResult', () => {
  describe('constructor', () => {
    it('defaults data, message and error to null and meta to {} when only success is given', () => {
      const result = new ToolResult(true);

      expect(result.toJSON()).toEqual({ success: true, data: null, message: null, error: null, meta: {} });
    });

    it('freezes the result and a copy of its meta when the meta is mutable', () => {
      const meta = { tool: 'x' };
      const result = new ToolResult(true, null, null, null, meta);
      meta.tool = 'changed';

      expect(Object.isFrozen(result)).toBe(true);
      expect(Object.isFrozen(result.meta)).toBe(true);
      expect(result.meta).toEqual({ tool: 'x' });
      expect(() => {
        (result as { success: boolean }).success = false;
      }).toThrow(TypeError);
    });
  });

  describe('success', () => {
    it('carries data and message with a null error, empty meta and generic type', () => {
      const result = ToolResult.success({ id: 1 }, 'Created successfully');

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ id: 1 });
      expect(result.message).toBe('Created successfully');
      expect(result.error).toBeNull();
      expect(result.meta).toEqual({});
      expect(result.getType()).toBe('generic');
    });

    it('keeps the given meta exactly, adding no type', () => {
      const result = ToolResult.success({ x: 1 }, null, { custom: 'meta' });

      expect(result.meta).toEqual({ custom: 'meta' });
      expect(result.message).toBeNull();
    });

    it('defaults data to null when called with no arguments', () => {
      expect(ToolResult.success().data).toBeNull();
    });
  });

  describe('error', () => {
    it('is a failure that keeps data, has a null message and meta.type error', () => {
      const result = ToolResult.error('Something went wrong', { partial: 'data' });

      expect(result.success).toBe(false);
      expect(result.error).toBe('Something went wrong');
      expect(result.data).toEqual({ partial: 'data' });
      expect(result.message).toBeNull();
      expect(result.meta['type']).toBe('error');
      expect(result.getType()).toBe('error');
    });

    it('overrides a caller-supplied meta.type and keeps the other meta keys', () => {
      const result = ToolResult.error('nope', null, { type: 'list', code: 'NOT_FOUND' });

      expect(result.meta).toEqual({ type: 'error', code: 'NOT_FOUND' });
      expect(result.getCode()).toBe('NOT_FOUND');
    });

    it('sets no meta.code on its own', () => {
      expect(ToolResult.error('VALIDATION_ERROR', { field: 'x' }).meta).toEqual({ type: 'error' });
    });
  });

  describe('failure', () => {
    it('puts the code in meta.code and the message in error', () => {
      const result = ToolResult.failure('CONFLICT', 'Request r-1 is already resolved');

      expect(result.success).toBe(false);
      expect(result.error).toBe('Request r-1 is already resolved');
      expect(result.message).toBeNull();
      expect(result.data).toBeNull();
      expect(result.meta).toEqual({ code: 'CONFLICT', type: 'error' });
      expect(result.getCode()).toBe('CONFLICT');
    });

    it('keeps data and extra meta while code and type win over the extra meta', () => {
      const result = ToolResult.failure(
        'VALIDATION_ERROR',
        'bad',
        { field: 'name' },
        {
          code: 'OTHER',
          type: 'list',
          errors: [{ path: 'name', message: 'required' }],
        },
      );

      expect(result.data).toEqual({ field: 'name' });
      expect(result.meta).toEqual({
        code: 'VALIDATION_ERROR',
        type: 'error',
        errors: [{ path: 'name', message: 'required' }],
      });
    });
  });

  describe('paginated', () => {
    it('computes the pagination block when given a middle page', () => {
      const result = ToolResult.paginated([{ id: 1 }, { id: 2 }, { id: 3 }], 2, 50, 10, 'Page 2 of 5');

      expect(result.success).toBe(true);
      expect(result.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      expect(result.message).toBe('Page 2 of 5');
      expect(result.getType()).toBe('list');
      expect(result.getPagination()).toEqual({
        page: 2,
        total_pages: 5,
        total_items: 50,
        limit: 10,
        has_prev: true,
        has_next: true,
      });
    });

    it.each([
      { page: 1, total: 30, limit: 10, pages: 3, prev: false, next: true },
      { page: 3, total: 30, limit: 10, pages: 3, prev: true, next: false },
      { page: 1, total: 5, limit: 10, pages: 1, prev: false, next: false },
      { page: 1, total: 0, limit: 10, pages: 0, prev: false, next: false },
    ])('sets has_prev $prev and has_next $next when on page $page of $total items by $limit', (c) => {
      const pagination = ToolResult.paginated([], c.page, c.total, c.limit).getPagination();

      expect(pagination?.total_pages).toBe(c.pages);
      expect(pagination?.has_prev).toBe(c.prev);
      expect(pagination?.has_next).toBe(c.next);
    });

    it('keeps extra meta next to type and pagination, which always win', () => {
      const result = ToolResult.paginated([], 1, 5, 10, null, { filter: 'active', type: 'x', pagination: 'x' });

      expect(result.meta['filter']).toBe('active');
      expect(result.meta['type']).toBe('list');
      expect(result.getPagination()?.total_pages).toBe(1);
    });

    it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('throws INVALID_ARGUMENT when limit is %s', (limit) => {
      const attempt = () => ToolResult.paginated([], 1, 10, limit);

      expect(attempt).toThrow(MilpaError);
      expect(attempt).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: `ToolResult.paginated() needs a positive limit, got ${String(limit)}.`,
        }),
      );
    });
  });

  describe('detail', () => {
    it('sets meta {type, entity, actions} and exposes the actions', () => {
      const result = ToolResult.detail({ id: 9 }, 'Product', 'Product details', ['edit', 'delete']);

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ id: 9 });
      expect(result.message).toBe('Product details');
      expect(result.meta).toEqual({ type: 'detail', entity: 'Product', actions: ['edit', 'delete'] });
      expect(result.getActions()).toEqual(['edit', 'delete']);
    });

    it('defaults to no actions and a null message', () => {
      const result = ToolResult.detail({ id: 9 }, 'Product');

      expect(result.meta).toEqual({ type: 'detail', entity: 'Product', actions: [] });
      expect(result.message).toBeNull();
    });
  });

  describe('confirmation', () => {
    it('is a success whose data is the details and meta asks for confirmation', () => {
      const details = { confirm_token: 'abc', name: 'Item 123' };
      const result = ToolResult.confirmation('Delete item 123?', details, 'delete', 'Item', 123);

      expect(result.success).toBe(true);
      expect(result.data).toEqual(details);
      expect(result.message).toBe('Delete item 123?');
      expect(result.error).toBeNull();
      expect(result.meta).toEqual({
        type: 'confirmation',
        requires_confirmation: true,
        action: 'delete',
        target: 'Item',
        target_id: 123,
      });
      expect(result.requiresConfirmation()).toBe(true);
      expect(result.getConfirmToken()).toBe('abc');
    });
  });

  describe('blocked', () => {
    it('is a failure with the reason as error and blocked meta', () => {
      const result = ToolResult.blocked('Item is in use', 'Try again later');

      expect(result.success).toBe(false);
      expect(result.error).toBe('Item is in use');
      expect(result.data).toBeNull();
      expect(result.isBlocked()).toBe(true);
      expect(result.getType()).toBe('blocked');
      expect(result.meta).toEqual({ type: 'blocked', blocked_by_rule: true, suggestion: 'Try again later' });
    });

    it('sets meta.suggestion to null when no suggestion is given', () => {
      const result = ToolResult.blocked('Item is in use');

      expect(result.meta).toHaveProperty('suggestion', null);
    });
  });

  describe('content', () => {
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'A chart' },
      { type: 'image', data: 'aGk=', mimeType: 'image/png' },
    ];

    it('carries the blocks as data with meta.type content', () => {
      const result = ToolResult.content(blocks, 'Rendered', { tool: 'chart' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual(blocks);
      expect(result.message).toBe('Rendered');
      expect(result.meta).toEqual({ tool: 'chart', type: 'content' });
      expect(result.getContent()).toEqual(blocks);
    });

    it('copies and freezes the blocks array so later edits do not leak in', () => {
      const source = [...blocks];
      const result = ToolResult.content(source);
      source.push({ type: 'text', text: 'late' });

      expect(result.data).toHaveLength(2);
      expect(Object.isFrozen(result.data)).toBe(true);
    });

    it('throws INVALID_ARGUMENT naming the index when a block is malformed', () => {
      const bad = [blocks[0], { type: 'text' }] as unknown as ContentBlock[];

      expect(() => ToolResult.content(bad)).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: 'ToolResult.content() got an invalid content block at index 1.',
        }),
      );
    });

    it('throws INVALID_ARGUMENT when the blocks are not an array', () => {
      const attempt = () => ToolResult.content({ type: 'text', text: 'x' } as unknown as ContentBlock[]);

      expect(attempt).toThrow(MilpaError);
      expect(attempt).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'ToolResult.content() expects an array of content blocks.' }),
      );
    });

    it('returns null from getContent for any other result type', () => {
      expect(ToolResult.success([{ type: 'text', text: 'x' }]).getContent()).toBeNull();
    });
  });

  describe('helpers', () => {
    it('report nothing special for a plain success', () => {
      const result = ToolResult.success('ok');

      expect(result.requiresConfirmation()).toBe(false);
      expect(result.isBlocked()).toBe(false);
      expect(result.getPagination()).toBeNull();
      expect(result.getActions()).toEqual([]);
      expect(result.getConfirmToken()).toBeNull();
      expect(result.getCode()).toBeNull();
      expect(result.getContent()).toBeNull();
    });

    it('require the exact value true for requires_confirmation and blocked_by_rule', () => {
      const result = ToolResult.success(null, null, { requires_confirmation: 'true', blocked_by_rule: 1 });

      expect(result.requiresConfirmation()).toBe(false);
      expect(result.isBlocked()).toBe(false);
    });

    it('fall back to generic when meta.type is not a string', () => {
      expect(ToolResult.success(null, null, { type: 7 }).getType()).toBe('generic');
    });

    it('read a confirm token only from an object data holding a string token', () => {
      expect(ToolResult.success({ confirm_token: 'tok' }).getConfirmToken()).toBe('tok');
      expect(ToolResult.success({ confirm_token: 42 }).getConfirmToken()).toBeNull();
      expect(ToolResult.success(['tok']).getConfirmToken()).toBeNull();
      expect(ToolResult.success('confirm_token').getConfirmToken()).toBeNull();
    });
  });

  describe('withMeta', () => {
    it('returns a new result with extra merged over the meta and leaves the receiver unchanged', () => {
      const original = ToolResult.error('nope', null, { code: 'FORBIDDEN' });
      const derived = original.withMeta({ tool: 'delete_note', code: 'RATE_LIMITED' });

      expect(derived).not.toBe(original);
      expect(derived.meta).toEqual({ type: 'error', code: 'RATE_LIMITED', tool: 'delete_note' });
      expect(original.meta).toEqual({ code: 'FORBIDDEN', type: 'error' });
      expect(derived.success).toBe(false);
      expect(derived.error).toBe('nope');
    });
  });

  describe('toJSON', () => {
    it('gives exactly success, data, message, error and meta in that order', () => {
      const result = ToolResult.paginated([1], 1, 1, 10, 'one');

      expect(Object.keys(result.toJSON())).toEqual(['success', 'data', 'message', 'error', 'meta']);
      expect(JSON.stringify(ToolResult.success({ id: 1 }, 'Created successfully'))).toBe(
        '{"success":true,"data":{"id":1},"message":"Created successfully","error":null,"meta":{}}',
      );
    });
  });

  describe('toJson', () => {
    it('pretty-prints the same shape with unicode left unescaped', () => {
      const result = ToolResult.success({ name: 'Milpa 🌽 ñ' }, 'Listo');
      const text = result.toJson();

      expect(text).toBe(JSON.stringify(result.toJSON(), null, 2));
      expect(text).toContain('\n  "success": true');
      expect(text).toContain('Milpa 🌽 ñ');
      expect(Object.keys(JSON.parse(text) as object)).toEqual(['success', 'data', 'message', 'error', 'meta']);
    });
  });

  describe('isToolResult', () => {
    it('returns true for results and false for look-alikes', () => {
      expect(ToolResult.isToolResult(ToolResult.success())).toBe(true);
      expect(ToolResult.isToolResult(ToolResult.success().toJSON())).toBe(false);
      expect(ToolResult.isToolResult({ success: true, data: null, message: null, error: null, meta: {} })).toBe(false);
      expect(ToolResult.isToolResult(null)).toBe(false);
      expect(ToolResult.isToolResult('result')).toBe(false);
    });

    it('recognises a result from a second copy of the module when instanceof does not', async () => {
      vi.resetModules();
      const copy = await import('./tool-result.js');
      const foreign: unknown = copy.ToolResult.success('x');

      expect(foreign instanceof ToolResult).toBe(false);
      expect(ToolResult.isToolResult(foreign)).toBe(true);
    });
  });
});
