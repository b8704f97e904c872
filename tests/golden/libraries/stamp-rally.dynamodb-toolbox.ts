// DynamoDB-Toolbox (v2) tables and entities of the design "stamp-rally",
// written by `ddbc export --format dynamodb-toolbox`: edit the design, not this file.
import { Table, Entity, TableAccessPattern, item, map, anyOf, string, number, binary, boolean, nul, set, any }
    from "dynamodb-toolbox";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** The table "line-event". */
export function lineEventTable(documentClient?: DynamoDBDocumentClient, name: string = "line-event") {
    return new Table({
        name, documentClient,
        partitionKey: { name: "PK", type: "string" },
        sortKey: { name: "SK", type: "string" },
        indexes: {
            "GSI1": { type: "global", partitionKey: { name: "GSI1PK", type: "string" }, sortKey: { name: "GSI1SK", type: "string" } },
        },
    });
}

/** The entities of the table lineEventTable returns. */
export function lineEventEntities(table: ReturnType<typeof lineEventTable>) {
    const UserEntity_base = item({
        "eventId": string().key(),
        "lineUserId": string().key(),
        "createdAt": string(),
        "updatedAt": string().optional(),
    });
    const UserEntity = new Entity({
        name: "User", table, timestamps: false,
        schema: UserEntity_base.and({
            "PK": string().key().link<typeof UserEntity_base>((i) => "EVENT#" + String(i["eventId"]) + "#USER#" + String(i["lineUserId"])),
            "SK": string().key().link<typeof UserEntity_base>((i) => "PROFILE"),
            "entityType": string().link<typeof UserEntity_base>((i) => "USER"),
            "GSI1PK": string().link<typeof UserEntity_base>((i) => "EVENT#" + String(i["eventId"]) + "#USERS"),
            "GSI1SK": string().link<typeof UserEntity_base>((i) => String(i["createdAt"]) + "#" + String(i["lineUserId"])),
        }),
    });
    const UserStampEntity_base = item({
        "eventId": string().key(),
        "lineUserId": string().key(),
        "stampId": string().key(),
        "acquiredAt": string().optional(),
        "flexMessageSent": boolean().optional(),
        "flexMessageSentAt": string().optional(),
    });
    const UserStampEntity = new Entity({
        name: "UserStamp", table, timestamps: false,
        schema: UserStampEntity_base.and({
            "PK": string().key().link<typeof UserStampEntity_base>((i) => "EVENT#" + String(i["eventId"]) + "#USER#" + String(i["lineUserId"])),
            "SK": string().key().link<typeof UserStampEntity_base>((i) => "STAMP#" + String(i["stampId"])),
            "entityType": string().link<typeof UserStampEntity_base>((i) => "USER_STAMP"),
        }),
    });
    const StampMasterEntity_base = item({
        "eventId": string().key(),
        "stampId": string().key(),
        "name": string().optional(),
        "order": number(),
        "isActive": boolean().optional(),
        "flexMessageContent": any().optional(),
    });
    const StampMasterEntity = new Entity({
        name: "StampMaster", table, timestamps: false,
        schema: StampMasterEntity_base.and({
            "PK": string().key().link<typeof StampMasterEntity_base>((i) => "EVENT#" + String(i["eventId"]) + "#STAMP#" + String(i["stampId"])),
            "SK": string().key().link<typeof StampMasterEntity_base>((i) => "MASTER"),
            "entityType": string().link<typeof StampMasterEntity_base>((i) => "STAMP_MASTER"),
            "GSI1PK": string().link<typeof StampMasterEntity_base>((i) => "EVENT#" + String(i["eventId"]) + "#STAMP_MASTERS"),
            "GSI1SK": string().link<typeof StampMasterEntity_base>((i) => pad_(i["order"], 3)),
        }),
    });
    return {
        "User": UserEntity,
        "UserStamp": UserStampEntity,
        "StampMaster": StampMasterEntity,
    };
}

/** The read access patterns on the table that are queries, as Toolbox's AccessPattern:
 * patterns.NAME.query(parameters).send(). */
export function lineEventPatterns(table: ReturnType<typeof lineEventTable>, entities: ReturnType<typeof lineEventEntities>) {
    return {
        "user-with-stamps": table.build(TableAccessPattern).entities(entities["User"], entities["UserStamp"])
            .schema(map({ "eventId": anyOf(string(), number()), "lineUserId": anyOf(string(), number()) }))
            .pattern((p) => ({ partition: "EVENT#" + String(p["eventId"]) + "#USER#" + String(p["lineUserId"]) }))
            .options({ maxPages: Infinity }),
        "users-by-date": table.build(TableAccessPattern).entities(entities["User"])
            .schema(map({ "eventId": anyOf(string(), number()) }))
            .pattern((p) => ({ index: "GSI1", partition: "EVENT#" + String(p["eventId"]) + "#USERS" }))
            .options({ maxPages: Infinity }),
        "users-registered-on-day": table.build(TableAccessPattern).entities(entities["User"])
            .schema(map({ "eventId": anyOf(string(), number()) }))
            .pattern((p) => ({ index: "GSI1", partition: "EVENT#" + String(p["eventId"]) + "#USERS", range: { between: ["2026-05-23", "2026-05-23T23:59:59.999Z#~"] } }))
            .options({ maxPages: Infinity }),
        "stamp-masters-by-order": table.build(TableAccessPattern).entities(entities["StampMaster"])
            .schema(map({ "eventId": anyOf(string(), number()) }))
            .pattern((p) => ({ index: "GSI1", partition: "EVENT#" + String(p["eventId"]) + "#STAMP_MASTERS" }))
            .options({ maxPages: Infinity }),
    };
}

/** Each table's functions, by the table's name. */
export const tables = {
    "line-event": { table: lineEventTable, entities: lineEventEntities, patterns: lineEventPatterns },
};

/* A :0WIDTH placeholder's value: a non-negative whole number in exactly
 * width digits, as ddbc writes it; any other value is refused. */
function pad_(v: unknown, width: number): string {
    const s = String(v).replace(/^0+(?=[0-9])/, "");
    if (!/^[0-9]+$/.test(s) || s.length > width)
        throw new RangeError(`${String(v)} is not a non-negative whole number of at most ${width} digits`);
    return s.padStart(width, "0");
}
