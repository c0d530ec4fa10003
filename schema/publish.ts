import { publishSchema } from "./breaking-changes.js";

await publishSchema();
console.log("schema/published/api.graphql is now schema/api.graphql; schema/breaking-changes.json is empty");
