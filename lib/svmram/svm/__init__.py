"""SVM backend: everything specific to Solaris Volume Manager lives in this package."""
