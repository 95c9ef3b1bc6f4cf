-- audit_questions: the question each type of row asks a judge and a ratifier, in words ({name} stands for the row's name), as the judgment rubric (jfi/audit/kit/rubric.md) puts it
--   type: unit type
--   sc: WCAG success criterion
--   question: the question, with {name} where the row's name goes
CREATE OR REPLACE TABLE audit_questions AS
SELECT * FROM (VALUES
    ('title', '2.4.2',
        'Does the title "{name}" say which page of which site this is, distinct from the product''s other pages?'),
    ('heading', '2.4.6', 'Does the heading "{name}" say what the section under it is about?'),
    ('field', '2.4.6', 'Does the label "{name}" say what to enter?'),
    ('link', '2.4.4', 'Does "{name}", read with its context, say where the link goes or what it does?'),
    ('image', '1.1.1', 'Does the text alternative "{name}" serve the same purpose as the image?'),
    ('ident', '3.2.4', 'Would a person recognise {name} as names of one destination?'),
    ('finding', '',
        'axe-core says: "{name}". Does this hold for the element, as a person meets it (yes: it passes; no: it fails as axe-core says)?')
) AS t(type, sc, question);
