// only comments
/* a block /* nested */ comment */
