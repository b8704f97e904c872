#!/usr/bin/env python3
"""shop_items.py - items of tests/fixtures/live/shop.ddb.yaml, some of them wrong.

    shop_items.py N > items.jsonl

Writes N export lines ({"Item": {...}}, DynamoDB JSON): a customer, then
nine orders of it, and so on. Deterministic. A few items break the design
in the ways check-items reports: an amount of the wrong type, an order
state outside its enum, a customer without its required name, an item of
no entity.
"""
import json
import sys

n = int(sys.argv[1])
out = sys.stdout
for i in range(n):
    c = i // 10
    cid = "c%05d" % c
    if i % 10 == 0:
        item = {"PK": {"S": "CUSTOMER#" + cid}, "SK": {"S": "PROFILE"},
                "customerId": {"S": cid}, "fullName": {"S": "Customer %d" % c},
                "email": {"S": "%s@example.com" % cid}}
        if c % 31 == 7:
            del item["fullName"]
    else:
        oid = "o%06d" % i
        item = {"PK": {"S": "CUSTOMER#" + cid}, "SK": {"S": "ORDER#" + oid},
                "customerId": {"S": cid}, "orderId": {"S": oid},
                "orderState": {"S": ["placed", "shipped", "delivered"][i % 3]},
                "placedAt": {"N": str(1700000000 + i)},
                "amount": {"N": "%d.%02d" % (i % 500, i % 100)},
                "basket": {"L": [{"M": {"sku": {"S": "A%d" % (i % 7)},
                                        "qty": {"N": str(1 + i % 4)}}}]}}
        if i % 3 == 0:
            item["expiresAt"] = {"N": str(1800000000 + i)}
        if i % 97 == 5:
            item["amount"] = {"S": "12.50"}
        if i % 401 == 9:
            item["orderState"] = {"S": "lost"}
    if i % 211 == 13:
        item = {"PK": {"S": "GHOST#%d" % i}, "SK": {"S": "NOTHING"}}
    out.write(json.dumps({"Item": item}, separators=(",", ":")) + "\n")
