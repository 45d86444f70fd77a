-- flowform state schema, version 3: the lock records which process holds it.
--
-- A lock row outlives a holder killed with kill -9 (unlike an OS file lock or a database session
-- lock). holder_process ("pid|start epoch millis|host/boot id/pid namespace") lets a later flowform
-- on the same machine see that the holder no longer exists and release the lock itself. Holders on
-- other machines are judged only by their heartbeat, and released only by force-unlock.
-- NULL for locks taken by flowform versions before this column existed.
ALTER TABLE state_lock ADD COLUMN holder_process VARCHAR;
