"""svmram: serve an SVM mirror's reads from a RAM submirror, safely."""

__version__ = "0.1.0"
