"""The hub's read model: the one typed view of a table that every screen reads (docs/architecture.md).

`hub.view.table.TableView` is what leaves the hub: the retained MQTT state, the WebSocket envelope, the REST
answers. `hub.view.build` makes it from the session, the device registry and the hub's alerts;
`hub.view.schema` writes its JSON Schema to docs/table-view.schema.json.
"""
