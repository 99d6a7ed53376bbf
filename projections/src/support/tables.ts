import type { Int8 } from '@sniplink/platform';

/**
 * The support read model's tables, written by `supportProjection` from the ticket streams `ticket-{id}`
 * and the users' erasures; read through `./queries`. The texts are the owner's personal data, decrypted
 * here and dropped when the owner is erased. Their migration is `…27T07-support`.
 */
export type SupportTables = {
  rm_support_tickets: RmSupportTicketsTable;
  rm_support_messages: RmSupportMessagesTable;
};

/** One row per ticket, as its last event left it. */
export interface RmSupportTicketsTable {
  ticket_id: string;
  user_id: string;
  subject: string;
  /** The first message. */
  message: string;
  priority: string;
  status: string;
  assignee_id: string | null;
  /** While resolved: when the sweep closes it. */
  auto_close_after: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The ticket stream's revision of the event that last wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}

/** One message of a ticket's conversation (the first one included). */
export interface RmSupportMessagesTable {
  message_id: string;
  ticket_id: string;
  /** The ticket's owner: erasure drops the owner's conversations by it. */
  user_id: string;
  message: string;
  is_from_admin: boolean;
  created_at: Date;
}
