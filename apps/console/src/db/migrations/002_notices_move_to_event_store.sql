-- Notices now live in the agent's event store beside the events (the agent raises most of them
-- and keeps them while the console is down). The panel database no longer holds them.
DROP TABLE notices;
