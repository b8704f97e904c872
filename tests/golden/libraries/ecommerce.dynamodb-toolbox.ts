// DynamoDB-Toolbox (v2) tables and entities of the design "ecommerce",
// written by `ddbc export --format dynamodb-toolbox`: edit the design, not this file.
import { Table, Entity, TableAccessPattern, item, map, anyOf, string, number, binary, boolean, nul, set, any }
    from "dynamodb-toolbox";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** The table "AppData". */
export function appDataTable(documentClient?: DynamoDBDocumentClient, name: string = "AppData") {
    return new Table({
        name, documentClient,
        partitionKey: { name: "PK", type: "string" },
        sortKey: { name: "SK", type: "string" },
        indexes: {
            "GSI1": { type: "global", partitionKey: { name: "GSI1PK", type: "string" }, sortKey: { name: "GSI1SK", type: "number" } },
            "GSI2": { type: "global", partitionKey: { name: "GSI2PK", type: "string" }, sortKey: { name: "GSI2SK", type: "string" } },
        },
    });
}

/** The entities of the table appDataTable returns. */
export function appDataEntities(table: ReturnType<typeof appDataTable>) {
    const UserEntity_base = item({
        "UserId": string().key(),
        "Name": string().optional(),
        "Email": string().optional(),
        "Age": number().optional(),
    });
    const UserEntity = new Entity({
        name: "User", table, timestamps: false,
        schema: UserEntity_base.and({
            "PK": string().key().link<typeof UserEntity_base>((i) => "USER#" + String(i["UserId"])),
            "SK": string().key().link<typeof UserEntity_base>((i) => "PROFILE"),
        }),
    });
    const OrderEntity_base = item({
        "UserId": string().key(),
        "OrderId": string().key(),
        "OrderDay": string().key(),
        "Amount": number().optional(),
        "Status": string().enum("pending", "shipped", "delivered"),
        "OrderDate": string(),
        "UserName": string().optional(),
    });
    const OrderEntity = new Entity({
        name: "Order", table, timestamps: false,
        schema: OrderEntity_base.and({
            "PK": string().key().link<typeof OrderEntity_base>((i) => "USER#" + String(i["UserId"])),
            "SK": string().key().link<typeof OrderEntity_base>((i) => "ORDER#" + String(i["OrderDay"]) + "#" + String(i["OrderId"])),
            "GSI2PK": string().link<typeof OrderEntity_base>((i) => String(i["Status"])),
            "GSI2SK": string().link<typeof OrderEntity_base>((i) => String(i["OrderDate"])),
        }),
    });
    const ProductEntity_base = item({
        "ProductId": string().key(),
        "Name": string().optional(),
        "Category": string(),
        "Price": number().optional(),
        "GSI1SK": number().optional(),
    });
    const ProductEntity = new Entity({
        name: "Product", table, timestamps: false,
        schema: ProductEntity_base.and({
            "PK": string().key().link<typeof ProductEntity_base>((i) => "PRODUCT#" + String(i["ProductId"])),
            "SK": string().key().link<typeof ProductEntity_base>((i) => "INFO"),
            "GSI1PK": string().link<typeof ProductEntity_base>((i) => String(i["Category"])),
        }),
    });
    return {
        "User": UserEntity,
        "Order": OrderEntity,
        "Product": ProductEntity,
    };
}

/** The read access patterns on the table that are queries, as Toolbox's AccessPattern:
 * patterns.NAME.query(parameters).send(). */
export function appDataPatterns(table: ReturnType<typeof appDataTable>, entities: ReturnType<typeof appDataEntities>) {
    return {
        "orders-by-user": table.build(TableAccessPattern).entities(entities["Order"])
            .schema(map({ "UserId": anyOf(string(), number()) }))
            .pattern((p) => ({ partition: "USER#" + String(p["UserId"]), range: { beginsWith: "ORDER#" } }))
            .options({ maxPages: Infinity }),
        "orders-by-user-and-date": table.build(TableAccessPattern).entities(entities["Order"])
            .schema(map({ "UserId": anyOf(string(), number()), "OrderDay": anyOf(string(), number()) }))
            .pattern((p) => ({ partition: "USER#" + String(p["UserId"]), range: { beginsWith: "ORDER#" + String(p["OrderDay"]) } }))
            .options({ maxPages: Infinity }),
        "products-by-category": table.build(TableAccessPattern).entities(entities["Product"])
            .schema(map({ "Category": anyOf(string(), number()) }))
            .pattern((p) => ({ index: "GSI1", partition: String(p["Category"]) }))
            .options({ maxPages: Infinity }),
        "orders-by-status": table.build(TableAccessPattern).entities(entities["Order"])
            .schema(map({ "Status": anyOf(string(), number()) }))
            .pattern((p) => ({ index: "GSI2", partition: String(p["Status"]) }))
            .options({ maxPages: Infinity, reverse: true }),
    };
}

/** Each table's functions, by the table's name. */
export const tables = {
    "AppData": { table: appDataTable, entities: appDataEntities, patterns: appDataPatterns },
};
