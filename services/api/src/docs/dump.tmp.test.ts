import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { startTestApi } from '../../../../test/support/api';
it('dumps', async () => {
  const api = await startTestApi();
  const doc = (await api.client().get('/api/openapi.json')).body;
  writeFileSync(process.env.DUMP_TO ?? '/tmp/openapi-modules.json', JSON.stringify(doc, null, 1));
  await api.close();
}, 60000);
