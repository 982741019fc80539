// Pure: the new-template form and the use case share it.
export const BLANK_TEMPLATE_NAME = "Untitled template";

export const BLANK_SUBJECT = 'Hello {{ name | default: "there" }}';

export const BLANK_CODE_BODY_HTML = `<!doctype html>
<html>
  <body style="margin:0;padding:24px;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;">
    <div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px;">
      <h1 style="margin:0 0 16px;font-size:22px;color:#0f172a;">Hello {{ name | default: "there" }}</h1>
      <p style="margin:0 0 16px;font-size:15px;line-height:24px;color:#334155;">Write your message here.</p>
    </div>
  </body>
</html>
`;
