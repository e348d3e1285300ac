; JSX: a lowercase tag name is an intrinsic element (div, span), never a reference.
(jsx_opening_element name: (identifier) @ignore (#match? @ignore "^[a-z]"))
(jsx_closing_element name: (identifier) @ignore (#match? @ignore "^[a-z]"))
(jsx_self_closing_element name: (identifier) @ignore (#match? @ignore "^[a-z]"))
(jsx_attribute (property_identifier) @ignore)
