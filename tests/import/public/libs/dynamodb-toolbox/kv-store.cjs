// The Pokemon key-value store of dynamodb-toolbox/dynamodb-toolbox
// docs/docs/1-getting-started/4-examples/1-kv-store.md (MIT): the page's Table, schema
// and Entity, its `...` and the clients left out, the attribute types it elides
// (pokeTypeSchema, evolutionSchema, now) filled in as the page's other code gives them.
const { Table, Entity, item, string, number, boolean, set, list, record, map, anyOf, any } =
  require("dynamodb-toolbox");
const now = () => new Date().toISOString();
const pokeTypeSchema = string().enum("fire", "water", "grass");
const evolutionSchema = map({ level: number(), species: string() });

const PokeTable = new Table({
  name: "poke-table",
  partitionKey: { name: "pokemonId", type: "string" },
});

const pokemonSchema = item({
  pokemonId: string().key(),
  appearedAt: string().default(now),
  updatedAt: string().required("always").putDefault(now).updateDefault(now),
  customName: string().optional(),
  species: string().enum("pikachu", "charizard"),
  level: number(),
  isLegendary: boolean().optional(),
  pokeTypes: set(pokeTypeSchema),
  evolutions: list(evolutionSchema).default([]),
  resistances: record(pokeTypeSchema, number()).partial(),
  captureState: anyOf(
    map({ status: string().enum("captured"), capturedAt: string() }),
    map({ status: string().enum("wild") }),
  ).discriminate("status").default({ status: "wild" }),
  metadata: any().optional(),
});

exports.PokemonEntity = new Entity({
  name: "pokemon",
  table: PokeTable,
  schema: pokemonSchema,
  entityAttribute: false,
  timestamps: false,
});
