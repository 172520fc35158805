// npm run api:client: writes clients/partner-api/schema.d.ts from the Partner API's OpenAPI document.
import { writeFileSync } from "node:fs";
import { clientTypes, CLIENT_TYPES_PATH } from "./lib/api-client-types";

writeFileSync(CLIENT_TYPES_PATH, await clientTypes());
console.log(`Wrote ${CLIENT_TYPES_PATH}`);
