// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { WalletRequestError } from '../../aiconnect/errors.js';

describe('WalletRequestError', () => {
  it('should carry its name, status and message', () => {
    const error = new WalletRequestError('The connection was declined', 403);
    assert.equal(error.name, 'WalletRequestError');
    assert.equal(error.status, 403);
    assert.equal(error.message, 'The connection was declined');
    assert.ok(error instanceof Error);
  });

  it('should keep a cause', () => {
    const cause = new Error('socket closed');
    assert.equal(new WalletRequestError('Provider unreachable', 502, { cause }).cause, cause);
  });

  it('should be recognisable by own name and status, without instanceof', () => {
    const { name, status } = { ...new WalletRequestError('stopped', 499) };
    assert.deepEqual({ name, status }, { name: 'WalletRequestError', status: 499 });
  });
});
