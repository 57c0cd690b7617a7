"""The book's services: what the chapters and the classroom notebooks use, not the measures.

* :mod:`recfair.book.plotting` -- the book's figures;
* :mod:`recfair.book.widgets` -- the interactive controls (one helper, precomputed on static pages),
  built on :mod:`recfair.book._interactive`;
* :mod:`recfair.book.guide` -- which measure to use: the selector and the measure index, from the records;
* :mod:`recfair.book.exercises` -- the classroom notebooks' self-checks (hashed answers in ``exercise_answers.json``);
* :mod:`recfair.book.thesis` -- the thesis's published numbers, for comparison;
* :mod:`recfair.book.symbolic` -- the sympy toolkit of the parts' ``derivations`` modules.

Nothing is imported here (sympy, matplotlib and ipywidgets load with the module that needs them):
``from recfair.book import plotting`` or ``recfair.plotting`` (a lazy alias).
"""
