// The Partner API's TypeScript types, generated from the same OpenAPI document /api/v1/openapi.json serves
// (openapi-typescript), formatted as the repository's Prettier does: `npm run api:client` writes them, and
// clients/partner-api/schema.test.ts fails when the committed file is not what the document generates now.
import openapiTS, { astToString } from "openapi-typescript";
import * as prettier from "prettier";
import { openApiDocument } from "#server/partner-api/openapi";

export const CLIENT_TYPES_PATH = "clients/partner-api/schema.d.ts";

const HEADER = `// Generated from the Partner API's OpenAPI document by \`npm run api:client\` (openapi-typescript). Do not edit:
// change functions/partner-api (the schemas and openapi.ts) and generate again. clients/partner-api/index.ts is the client.
`;

export async function clientTypes(): Promise<string> {
  const doc = openApiDocument("https://portal.example.com");
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)) as Parameters<typeof openapiTS>[0]);
  const options = (await prettier.resolveConfig(CLIENT_TYPES_PATH)) ?? {};
  return prettier.format(`${HEADER}\n${astToString(ast)}`, { ...options, filepath: CLIENT_TYPES_PATH });
}
