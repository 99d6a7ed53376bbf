import { shortCodeStream } from '@sniplink/contracts';
import { shortCodeDecider } from '@sniplink/domain';
import { handlerSpec } from '@sniplink/test-support/command-spec';
import { events, specIds } from '@sniplink/test-support/events';
import { describe, it } from 'vitest';
import { linkCommands } from './link-streams';

const links = handlerSpec(linkCommands);
const codes = handlerSpec({ decider: shortCodeDecider, stream: shortCodeStream });
const { link: LINK, owner: OWNER } = specIds;
const OTHER_LINK = '01890000-0000-7000-8000-00000000c002';
const STRANGER = '01890000-0000-7000-8000-00000000a005';

const created = events.linkCreated({ linkId: LINK, ownerId: OWNER, code: 'abc123' });
const claimedByOwner = (code: string) => events.shortCodeClaimed({ code, ownerId: OWNER, linkId: LINK });

describe("a link's code change, through the link and short-code pipelines on the in-memory store", () => {
  it('the new code is claimed on its own stream, named in lower case', async () => {
    await codes
      .given('Launch')
      .when({ type: 'ClaimCode', code: 'Launch', ownerId: OWNER, linkId: LINK })
      .then(claimedByOwner('Launch'));
  });

  it("a code another account's link holds is refused (409 SHORT_CODE_TAKEN)", async () => {
    await codes
      .given('launch', events.shortCodeClaimed({ code: 'launch', ownerId: STRANGER, linkId: OTHER_LINK }))
      .when({ type: 'ClaimCode', code: 'launch', ownerId: OWNER, linkId: LINK })
      .thenFails({ code: 'SHORT_CODE_TAKEN', status: 409 });
  });

  it("the link's stream records the move, naming the code it left", async () => {
    await links
      .given(LINK, created)
      .when({ type: 'ChangeLink', ownerId: OWNER, code: 'launch' })
      .then(events.linkCodeChanged({ code: 'launch', previousCode: 'abc123' }));
  });

  it("another account's change of the link is a 404, as for a link that does not exist", async () => {
    await links
      .given(LINK, created)
      .when({ type: 'ChangeLink', ownerId: STRANGER, code: 'launch' })
      .thenFails({ status: 404 });
  });

  it('the code left is freed when the link was never clicked, and kept for its owner once it was', async () => {
    await codes
      .given('abc123', claimedByOwner('abc123'))
      .when({ type: 'GiveUpCode', linkId: LINK, clicks: 'none' })
      .then(events.shortCodeReleased({ linkId: LINK, reason: 'never-clicked' }));
    await codes
      .given('abc123', claimedByOwner('abc123'))
      .when({ type: 'GiveUpCode', linkId: LINK, clicks: 'counted' })
      .then(events.shortCodeRetired({ linkId: LINK, reason: 'clicked' }));
  });
});
