// Office from tywalch/electrodb examples/taskManager/models/office.ts (MIT): the Entity as written there;
// its TypeScript imports and types left out, table as examples/common/table.ts names it.
const { Entity } = require("electrodb");
const table = "electro";
exports.Office = new Entity(
  {
    model: {
      entity: "Office",
      version: "1",
      service: "task-manager",
    },
    attributes: {
      officeName: {
        type: "string",
      },
      country: {
        type: "string",
      },
      state: {
        type: "string",
      },
      city: {
        type: "string",
      },
      zip: {
        type: "string",
      },
      address: {
        type: "string",
      },
    },
    indexes: {
      locations: {
        pk: {
          field: "pk",
          composite: ["country", "state"],
        },
        sk: {
          field: "sk",
          composite: ["city", "zip", "officeName"],
        },
      },
      office: {
        index: "gsi1pk-gsi1sk-index",
        collection: "workplaces",
        pk: {
          field: "gsi1pk",
          composite: ["officeName"],
        },
        sk: {
          field: "gsi1sk",
          composite: [],
        },
      },
    },
  },
  { table },
);
