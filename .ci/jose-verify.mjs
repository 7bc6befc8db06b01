// jose-verify.mjs: checks a Daawid access token with an independent JOSE
// library, the npm jose package (issue 19, MCP-18): the signature against
// the published JWKS (createRemoteJWKSet), the type at+jwt (RFC 9068), the
// issuer and the audience.
//
//   node jose-verify.mjs JWKS_URL ISSUER AUDIENCE TOKEN [NOW_UNIX_SECONDS]
//
// NOW_UNIX_SECONDS is the instant the token is checked at (the server's
// clock in a test); default the machine's clock.
// Exits 0 and prints "ok JSON" (the header and the payload) when jose takes
// the token; 1 and "refused CODE: MESSAGE" when it does not; 2 on usage.
import path from "node:path";
import { fileURLToPath } from "node:url";

const [jwksURL, issuer, audience, token, now] = process.argv.slice(2);
if (!jwksURL || !issuer || !audience || !token) {
  console.error("usage: node jose-verify.mjs JWKS_URL ISSUER AUDIENCE TOKEN [NOW_UNIX_SECONDS]");
  process.exit(2);
}
const tools = process.env.DAAWID_CI_TOOLS || path.dirname(fileURLToPath(import.meta.url));
const { jwtVerify, createRemoteJWKSet } = await import(`${tools}/node_modules/jose/dist/webapi/index.js`);

try {
  const jwks = createRemoteJWKSet(new URL(jwksURL));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, {
    issuer,
    audience,
    typ: "at+jwt",
    algorithms: ["ES256"],
    currentDate: now ? new Date(Number(now) * 1000) : undefined,
    requiredClaims: ["exp", "iat", "sub"],
  });
  console.log(`ok ${JSON.stringify({ header: protectedHeader, payload })}`);
} catch (e) {
  console.log(`refused ${e.code || e.name}: ${e.message}`);
  process.exit(1);
}
