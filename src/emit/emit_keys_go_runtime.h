/* emit_keys_go_runtime.h - the fixed Go source of every `ddbc keys --lang go` package */
#ifndef DDBC_EMIT_KEYS_GO_RUNTIME_H
#define DDBC_EMIT_KEYS_GO_RUNTIME_H

/* KeyBuildError, the builder and the parser over a key's shape. */
extern const char ddbc_keys_go_runtime[];
/* DynamoDB JSON as aws-sdk-go-v2's AttributeValues, for the requests' SDK inputs. */
extern const char ddbc_keys_go_sdk_runtime[];
/* The matcher of key languages and the entity shapes' type, before the guards' data. */
extern const char ddbc_keys_go_guard_runtime[];

#endif
