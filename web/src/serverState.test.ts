import { describe, expect, it } from 'vitest';
import { createQueryClient } from './queryClient';
import { serverStateScript } from './serverState';

describe('serverStateScript', () => {
  it('carries data that holds a closing script tag as data: the element ends only where it should', () => {
    const queryClient = createQueryClient();
    const hostile = '</script><script>alert(1)</script><!--';
    queryClient.setQueryData(['page copy'], { text: hostile });

    const script = serverStateScript(queryClient);

    expect(script.startsWith('<script type="application/json" id="server-state">')).toBe(true);
    expect(script.match(/<\/script/gi)).toEqual(['</script']);
    expect(script.endsWith('</script>')).toBe(true);
    expect(script).not.toContain('<!--');
    const json = script.slice(script.indexOf('>') + 1, -'</script>'.length);
    const [[queryKey, data]] = JSON.parse(json);
    expect(queryKey).toEqual(['page copy']);
    expect(data).toEqual({ text: hostile });
  });
});
