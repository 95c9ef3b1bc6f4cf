-- corpus_reason_codes (round-v2 row): NO-ACCESSIBLE-NAME, a review's reason to reject an item whose control announces nothing
INSERT INTO corpus_reason_codes VALUES ('NO-ACCESSIBLE-NAME');
