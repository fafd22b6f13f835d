"""`jacknine serve`: a table for people at different places, in a browser (the optional `web` extra).

`table` is the table's logic and its log, `protocol` the messages, `store` the database, `uploads` house rules
uploaded as files, `bots` the executors bots decide in, `server` the Starlette application; `static/` holds the
page (plain ES modules and CSS, no build step)."""
