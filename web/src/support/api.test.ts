import { describe, expect, it } from 'vitest';
import { ticketStatusColor, ticketStatusLabels } from './api';

describe('the status badge of a ticket', () => {
  it('is green while open, yellow in progress, grey otherwise', () => {
    expect(ticketStatusColor('open')).toBe('green');
    expect(ticketStatusColor('in_progress')).toBe('yellow');
    expect(ticketStatusColor('resolved')).toBe('gray');
    expect(ticketStatusColor('closed')).toBe('gray');
  });

  it('reads the status in words', () => {
    expect(Object.values(ticketStatusLabels)).toEqual(['Open', 'In progress', 'Resolved', 'Closed']);
  });
});
