// The Pokemon table with a secondary index of dynamodb-toolbox/dynamodb-toolbox
// docs/docs/1-getting-started/4-examples/2-scans-and-queries.md (MIT): the page's Table
// with byTrainerId and the schema extended as its tip shows (the putLink of captureDate),
// the kv-store page's attributes it builds on shortened, the clients left out.
const { Table, Entity, item, string, number } = require("dynamodb-toolbox");

const PokeTable = new Table({
  name: "poke-table",
  partitionKey: { name: "pokemonId", type: "string" },
  indexes: {
    byTrainerId: {
      type: "global",
      partitionKey: { name: "trainerId", type: "string" },
      sortKey: { name: "captureDate", type: "string" },
    },
  },
});

const pokemonSchema = item({
  pokemonId: string().key(),
  species: string().enum("pikachu", "charizard"),
  level: number(),
  trainerId: string().optional(),
}).and((prevSchema) => ({
  captureDate: string()
    .optional()
    .putLink(({ trainerId }) =>
      trainerId !== undefined ? new Date().toISOString() : undefined),
}));

exports.PokemonEntity = new Entity({
  name: "pokemon",
  table: PokeTable,
  schema: pokemonSchema,
  entityAttribute: false,
  timestamps: false,
});
