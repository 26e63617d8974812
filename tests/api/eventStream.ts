/**
 * The events of one topic on a user's live event stream (/api/events), each with when it arrived, until
 * `stop()`: for the tests and benches that follow what the server tells a console.
 */
export async function streamEvents<T>(url: string, token: string, topic: string) {
  const ticket = (await (await fetch(`${url}/api/events/ticket`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: '{}' })).json()).data.ticket;
  const abort = new AbortController();
  const res = await fetch(`${url}/api/events?ticket=${ticket}`, { signal: abort.signal });
  const events: (T & { at: number })[] = [];
  const done = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        if (block.startsWith(`event: ${topic}\n`)) events.push({ ...JSON.parse(block.slice(block.indexOf('data: ') + 6)), at: performance.now() });
      }
    }
  })().catch(() => undefined);
  return { events, stop: async () => (abort.abort(), await done) };
}
