// ElectroDB (3.x) entities and services of the design "ecommerce",
// written by `ddbc export --format electrodb`: edit the design, not this file.
import { Entity, Service } from "electrodb";
import type { EntityConfiguration } from "electrodb";

/** The client ElectroDB takes: a DynamoDBDocumentClient (@aws-sdk/lib-dynamodb). */
export type Client = NonNullable<EntityConfiguration["client"]>;

/** The table "AppData" and its entities. */
export function AppDataService(client?: Client, table: string = "AppData") {
    return new Service({
        "User": new Entity({
            model: { entity: "User", version: "1", service: "ecommerce" },
            attributes: {
                "UserId": { type: "string", required: true },
                "Name": { type: "string" },
                "Email": { type: "string" },
                "Age": { type: "number" },
            },
            indexes: {
                "AppData": {
                    pk: { field: "PK", composite: ["UserId"], template: "USER#${UserId}", casing: "none" },
                    sk: { field: "SK", composite: [], template: "PROFILE", casing: "none" },
                },
            },
        }, { client, table }),
        "Order": new Entity({
            model: { entity: "Order", version: "1", service: "ecommerce" },
            attributes: {
                "UserId": { type: "string", required: true },
                "OrderId": { type: "string", required: true },
                "OrderDay": { type: "string", required: true },
                "Amount": { type: "number" },
                "Status": { type: ["pending", "shipped", "delivered"] as const, required: true },
                "OrderDate": { type: "string", required: true },
                "UserName": { type: "string" },
            },
            indexes: {
                "AppData": {
                    pk: { field: "PK", composite: ["UserId"], template: "USER#${UserId}", casing: "none" },
                    sk: { field: "SK", composite: ["OrderDay", "OrderId"], template: "ORDER#${OrderDay}#${OrderId}", casing: "none" },
                },
                "GSI2": {
                    index: "GSI2",
                    pk: { field: "GSI2PK", composite: ["Status"], template: "${Status}", casing: "none" },
                    sk: { field: "GSI2SK", composite: ["OrderDate"], template: "${OrderDate}", casing: "none" },
                },
            },
        }, { client, table }),
        "Product": new Entity({
            model: { entity: "Product", version: "1", service: "ecommerce" },
            attributes: {
                "ProductId": { type: "string", required: true },
                "Name": { type: "string" },
                "Category": { type: "string", required: true },
                "Price": { type: "number" },
                "GSI1SK": { type: "number" },
            },
            indexes: {
                "AppData": {
                    pk: { field: "PK", composite: ["ProductId"], template: "PRODUCT#${ProductId}", casing: "none" },
                    sk: { field: "SK", composite: [], template: "INFO", casing: "none" },
                },
                "GSI1": {
                    index: "GSI1",
                    pk: { field: "GSI1PK", composite: ["Category"], template: "${Category}", casing: "none" },
                    sk: { field: "GSI1SK", composite: ["GSI1SK"], cast: "number", casing: "none" },
                },
            },
        }, { client, table }),
    }, { client, table });
}

/* What a query returns: its items, each with its key fields. */
function items_(r: { data: unknown }): unknown[] {
    return Array.isArray(r.data) ? r.data : r.data == null ? [] : [r.data];
}

/** Each read access pattern: ElectroDB's query of each entity it returns, every page,
 * the items joined. */
export const patterns = {
    "get-user": async (svc: ReturnType<typeof AppDataService>, p: { "UserId": string }): Promise<unknown[]> => [
        ...items_(await svc.entities["User"].get({ "UserId": p["UserId"] }).go({ data: "includeKeys" })),
    ],
    "orders-by-user": async (svc: ReturnType<typeof AppDataService>, p: { "UserId": string }): Promise<unknown[]> => [
        ...items_(await svc.entities["Order"].query["AppData"]({ "UserId": p["UserId"] }).go({ pages: "all", data: "includeKeys" })),
    ],
    "orders-by-user-and-date": async (svc: ReturnType<typeof AppDataService>, p: { "UserId": string, "OrderDay": string }): Promise<unknown[]> => [
        ...items_(await svc.entities["Order"].query["AppData"]({ "UserId": p["UserId"] }).begins({ "OrderDay": p["OrderDay"] }).go({ pages: "all", data: "includeKeys" })),
    ],
    "get-order": async (svc: ReturnType<typeof AppDataService>, p: { "UserId": string, "OrderDay": string, "OrderId": string }): Promise<unknown[]> => [
        ...items_(await svc.entities["Order"].get({ "UserId": p["UserId"], "OrderDay": p["OrderDay"], "OrderId": p["OrderId"] }).go({ data: "includeKeys" })),
    ],
    "get-product": async (svc: ReturnType<typeof AppDataService>, p: { "ProductId": string }): Promise<unknown[]> => [
        ...items_(await svc.entities["Product"].get({ "ProductId": p["ProductId"] }).go({ data: "includeKeys" })),
    ],
    "products-by-category": async (svc: ReturnType<typeof AppDataService>, p: { "Category": string }): Promise<unknown[]> => [
        ...items_(await svc.entities["Product"].query["GSI1"]({ "Category": p["Category"] }).go({ pages: "all", data: "includeKeys" })),
    ],
    "orders-by-status": async (svc: ReturnType<typeof AppDataService>, p: { "Status": "pending" | "shipped" | "delivered" }): Promise<unknown[]> => [
        ...items_(await svc.entities["Order"].query["GSI2"]({ "Status": p["Status"] as "pending" | "shipped" | "delivered" }).go({ pages: "all", data: "includeKeys" })),
    ],
};

/** Each table's function, by the table's name. */
export const services = {
    "AppData": AppDataService,
};
