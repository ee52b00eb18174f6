/**
 * The small Markdown subset the OpenAPI descriptions use (CommonMark as written by core/openapi):
 * paragraphs, "- " lists, `code`, **bold** and [links](url). Everything else is text, escaped, so a
 * description can never inject markup into the page.
 */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function renderInline(text: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+|\/[^)\s]*)\)/g, '<a href="$2">$1</a>');
    })
    .join('');
}

export function renderMarkdown(markdown: string): string {
  const html: string[] = [];
  for (const block of markdown.trim().split(/\n{2,}/)) {
    const lines = block.split('\n');
    if (lines.every((line) => /^\s*- /.test(line) || /^\s{2,}\S/.test(line))) {
      const items: string[] = [];
      for (const line of lines) {
        if (/^\s*- /.test(line)) items.push(line.replace(/^\s*- /, ''));
        else items[items.length - 1] += ` ${line.trim()}`;
      }
      html.push(`<ul>${items.map((item) => `<li>${renderInline(item)}</li>`).join('')}</ul>`);
    } else {
      html.push(`<p>${renderInline(lines.join(' '))}</p>`);
    }
  }
  return html.join('\n');
}
