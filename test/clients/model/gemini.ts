import { bareName, sse, type ApiServer } from './server.js';
import type { Conversation, ReadImage, ToolDef, ToolRead } from './types.js';

type Part = Record<string, unknown>;
interface Content {
  role?: string;
  parts?: Part[];
}

function toolsOf(body: Record<string, unknown>): ToolDef[] {
  const groups = Array.isArray(body.tools) ? (body.tools as Array<{ functionDeclarations?: Part[] }>) : [];
  return groups.flatMap((g) =>
    (g.functionDeclarations ?? []).map((f) => ({
      name: String(f.name),
      tool: bareName(String(f.name)),
      json: JSON.stringify(f),
    })),
  );
}

function inlineImage(part: Part): ReadImage | undefined {
  const inline = part.inlineData as { mimeType?: string; data?: string } | undefined;
  return inline ? { mimeType: String(inline.mimeType), data: String(inline.data) } : undefined;
}

function readsOf(contents: Content[]): ToolRead[] {
  const reads: ToolRead[] = [];
  contents.forEach((content) => {
    const parts = content.parts ?? [];
    parts.forEach((part) => {
      const response = part.functionResponse as
        { name?: string; id?: string; response?: Record<string, unknown>; parts?: Part[] } | undefined;
      if (!response) return;
      const value = response.response ?? {};
      const whole =
        typeof value.output === 'string'
          ? value.output
          : typeof value.error === 'string'
            ? value.error
            : JSON.stringify(value);
      // Gemini CLI marks each text block an MCP server sent as untrusted, and says where an image went
      const blocks = [...whole.matchAll(UNTRUSTED)];
      const text = blocks.length ? blocks.map((m) => String(m[1])).join('\n') : whole;
      const around = blocks.length ? whole.replace(UNTRUSTED, '<untrusted_context>\n…\n</untrusted_context>') : '…';
      // images come as inlineData parts of the functionResponse, or as parts after it in the same message
      const images = [
        ...(response.parts ?? []).map(inlineImage),
        ...parts.filter((p) => p !== part && !p.functionResponse).map(inlineImage),
      ].filter((i): i is ReadImage => Boolean(i));
      reads.push({
        tool: bareName(String(response.name)),
        callId: String(response.id ?? ''),
        text,
        images,
        wrapping: typeof value.output === 'string' ? `{"output": ${around}}` : around,
        isError: typeof value.error === 'string',
        raw: { functionResponse: response, parts: parts.length },
      });
    });
  });
  return reads;
}

const UNTRUSTED = /<untrusted_context>\n([\s\S]*?)\n<\/untrusted_context>/g;

const candidate = (parts: Part[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
  modelVersion: 'gemini-2.5-flash',
});

/** The Gemini API as Gemini CLI streams it (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`). */
export const geminiApi: ApiServer = {
  route(method, path) {
    if (method === 'POST' && path.endsWith(':streamGenerateContent')) return 'converse';
    if (method === 'POST' && path.endsWith(':countTokens')) return { json: { totalTokens: 100 } };
    if (method === 'POST' && path.endsWith(':generateContent')) return { json: candidate([{ text: 'ok' }]) };
    return { status: 404, json: { error: { code: 404, message: `no ${method} ${path} here`, status: 'NOT_FOUND' } } };
  },

  isAgentTurn(body) {
    return toolsOf(body).length > 0;
  },

  parse(body): Conversation {
    const contents = (Array.isArray(body.contents) ? body.contents : []) as Content[];
    const first = (contents.find((c) => c.role === 'user')?.parts ?? []).map((p) => String(p.text ?? ''));
    return { tools: toolsOf(body), reads: readsOf(contents), prompt: first[first.length - 1] ?? '' };
  },

  answer(turn) {
    const part =
      'call' in turn ? { functionCall: { name: turn.call.name, args: turn.args, id: turn.id } } : { text: turn.text };
    return sse(candidate([part]));
  },

  side() {
    return sse(candidate([{ text: 'ok' }]));
  },
};
