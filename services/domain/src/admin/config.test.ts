import type { ConfigEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { configDecider } from './config';

const given = specFor(configDecider);
const created: ConfigEvent = {
  type: 'ConfigEntryCreated',
  data: { key: 'support.email', value: 'help@example.com', description: null },
};

describe('config entry decider', () => {
  it('creates a key once: a second create is a conflict, also after updates', () => {
    given([])
      .when({ type: 'CreateConfigEntry', key: 'support.email', value: 'help@example.com', description: null })
      .then([created]);
    given([created])
      .when({ type: 'CreateConfigEntry', key: 'support.email', value: 'other', description: null })
      .thenThrows({ code: 'CONFLICT', status: 409 });
  });

  it('never creates an entry under a name objects inherit, nor under a key outside the pattern', () => {
    for (const key of ['__proto__', 'constructor', 'prototype', 'hasownproperty', 'toString', '']) {
      given([])
        .when({ type: 'CreateConfigEntry', key, value: '1', description: null })
        .thenThrows({ status: 400, field: 'key' });
    }
  });

  it('updates and deletes only an entry that exists; a deleted key may be created again', () => {
    const deleted: ConfigEvent = {
      type: 'ConfigEntryDeleted',
      data: { key: 'support.email', previousValue: 'help@example.com' },
    };
    given([]).when({ type: 'UpdateConfigEntry', key: 'x', value: '1', description: null }).thenThrows({
      code: 'NOT_FOUND',
      status: 404,
    });
    given([]).when({ type: 'DeleteConfigEntry', key: 'x' }).thenThrows({ status: 404 });
    given([created])
      .when({
        type: 'UpdateConfigEntry',
        key: 'support.email',
        value: 'desk@example.com',
        description: 'Desk',
      })
      .then([
        {
          type: 'ConfigEntryUpdated',
          data: {
            key: 'support.email',
            value: 'desk@example.com',
            description: 'Desk',
            previousValue: 'help@example.com',
          },
        },
      ]);
    given([created])
      .when({ type: 'UpdateConfigEntry', key: 'support.email', value: 'help@example.com', description: null })
      .then([]);
    given([created]).when({ type: 'DeleteConfigEntry', key: 'support.email' }).then([deleted]);
    given([created, deleted])
      .when({ type: 'DeleteConfigEntry', key: 'support.email' })
      .thenThrows({ status: 404 });
    given([created, deleted])
      .when({ type: 'CreateConfigEntry', key: 'support.email', value: 'new', description: null })
      .then([
        { type: 'ConfigEntryCreated', data: { key: 'support.email', value: 'new', description: null } },
      ]);
  });

  it("checks a known key's value and stores it in canonical form; other keys are text", () => {
    given([])
      .when({ type: 'CreateConfigEntry', key: 'links.free_limit', value: ' 02 ', description: null })
      .then([
        { type: 'ConfigEntryCreated', data: { key: 'links.free_limit', value: '2', description: null } },
      ]);
    for (const value of ['two', '-1', '2.5', '1e3', '1000001']) {
      given([])
        .when({ type: 'CreateConfigEntry', key: 'links.free_limit', value, description: null })
        .thenThrows({
          status: 400,
          field: 'value',
          message: 'links.free_limit must be a whole number from 0 to 1000000',
        });
    }
    given([])
      .when({ type: 'CreateConfigEntry', key: 'links.free_limit_note', value: 'two', description: null })
      .then([
        {
          type: 'ConfigEntryCreated',
          data: { key: 'links.free_limit_note', value: 'two', description: null },
        },
      ]);
  });
});
