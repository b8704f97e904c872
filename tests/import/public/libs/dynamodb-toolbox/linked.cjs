// The "Linked" example of dynamodb-toolbox/dynamodb-toolbox
// docs/docs/3-entities/1-usage/index.md (MIT): a partition key linked from two key
// attributes; the page's `...` left out, the table named.
const { Table, Entity, item, string } = require("dynamodb-toolbox");

const PokeTable = new Table({
  name: "poke-table",
  partitionKey: { name: "pk", type: "string" },
});

exports.PokemonEntity = new Entity({
  name: "pokemon",
  table: PokeTable,
  schema: item({
    pokemonId: string().key(),
    trainerId: string().key(),
  }).and((prevSchema) => ({
    pk: string()
      .key()
      .link(({ trainerId, pokemonId }) => `${trainerId}#${pokemonId}`),
  })),
});
